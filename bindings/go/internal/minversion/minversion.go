// Package minversion is the check that the subpackages hpke and stream make at init: the loaded
// libaead (an installed one, -tags libaead_system) may predate what they call.
package minversion

import (
	"errors"
	"strconv"
)

// Err returns nil when loaded (the loaded library's aead_version_number(): major*10000 + minor*100 +
// patch) is need or newer, and otherwise the error every constructor of package pkg then returns:
// "<pkg>: libaead <major.minor> loaded; <what> needs libaead <need> or newer".
func Err(pkg string, loaded, need uint32, what string) error {
	if loaded >= need {
		return nil
	}
	return errors.New(pkg + ": libaead " + strconv.Itoa(int(loaded/10000)) + "." + strconv.Itoa(int(loaded/100%100)) +
		" loaded; " + what + " needs libaead " + strconv.Itoa(int(need/10000)) + "." + strconv.Itoa(int(need/100%100)) +
		"." + strconv.Itoa(int(need%100)) + " or newer")
}
