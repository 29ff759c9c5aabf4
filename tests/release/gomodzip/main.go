// Command gomodzip writes a module as a Go module proxy serves it (the GOPROXY protocol's files:
// <proxy>/<escaped module path>/@v/list, <version>.info, <version>.mod, <version>.zip), the zip made
// by golang.org/x/mod/zip exactly as the go command and proxy.golang.org make module zips (it refuses
// what they refuse: nested modules are left out, invalid file names and oversized files are errors).
//
//	go run . <module dir> <version> <proxy dir>
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gomodzip <module dir> <version> <proxy dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "gomodzip:", err)
		os.Exit(1)
	}
}

func run(dir, version, proxy string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	mv := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err // e.g. a v2+ version without the /vN suffix in the module path
	}
	esc, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	vdir := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	var zbuf bytes.Buffer
	if err := zip.CreateFromDir(&zbuf, mv, dir); err != nil {
		return err
	}
	info := fmt.Sprintf("{\"Version\":%q,\"Time\":%q}\n", version, time.Now().UTC().Format(time.RFC3339))
	files := map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(info),
		version + ".mod":  gomod,
		version + ".zip":  zbuf.Bytes(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%s@%s: %s (%d bytes)\n", path, version, filepath.Join(vdir, version+".zip"), zbuf.Len())
	return nil
}
