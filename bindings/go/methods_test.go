package aead

import (
	"crypto/cipher"
	"crypto/tls"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// extraMethods returns the exported methods of t beyond those of the interface iface, as
// crypto/internal/cryptotest.NoExtraMethods finds them: methods reachable by a type assertion on a
// value returned as that interface are API, even undocumented.
func extraMethods(t reflect.Type, iface reflect.Type) []string {
	var extra []string
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		if _, ok := iface.MethodByName(m.Name); m.IsExported() && !ok {
			extra = append(extra, m.Name)
		}
	}
	return extra
}

var aeadInterface = reflect.TypeOf((*cipher.AEAD)(nil)).Elem()

// noExtraArgs are the arguments TestNoExtraMethods calls each constructor of Options that returns
// cipher.AEAD with; a constructor missing here fails the test, so a new one is checked too.
var noExtraArgs = func() map[string][]any {
	k16, k32, iv := make([]byte, 16), make([]byte, 32), make([]byte, 12)
	return map[string][]any{
		"NewGCM":                              {k16},
		"NewGCMWithTagSize":                   {k16, 12},
		"NewGCMWithNonceSize":                 {k16, 16},
		"NewGCMWithRandomNonce":               {k16},
		"NewGCMForTLS12":                      {k16},
		"NewGCMForTLS13":                      {k16},
		"NewGCMForTLS12WithIV":                {k16, iv[:4]},
		"NewGCMForTLS13WithIV":                {k16, iv},
		"NewGCMForQUIC":                       {k16, iv},
		"NewGCMWithCounterNonce":              {k16},
		"NewGCMWithCounterNonceAndIV":         {k16, iv},
		"NewGCMWithXORCounterNonce":           {k16},
		"NewGCMWithXORCounterNonceAndIV":      {k16, iv},
		"NewGCMForSSH":                        {k16},
		"NewGCMForSSHWithIV":                  {k16, iv},
		"NewChaCha20Poly1305":                 {k32},
		"NewChaCha20Poly1305ForTLS12":         {k32},
		"NewChaCha20Poly1305ForTLS13":         {k32},
		"NewChaCha20Poly1305ForTLS12WithIV":   {k32, iv},
		"NewChaCha20Poly1305ForTLS13WithIV":   {k32, iv},
		"NewChaCha20Poly1305ForQUIC":          {k32, iv},
		"NewCCM":                              {k16, 13, 16},
		"NewGCMSIV":                           {k16},
		"NewOCB3":                             {k16},
		"NewOCB3WithNonceSize":                {k16, 15},
		"NewXChaCha20Poly1305":                {k32},
		"NewXChaCha20Poly1305WithRandomNonce": {k32},
		"NewAEGIS128L":                        {k16},
		"NewAEGIS128LWithTagSize":             {k16, 32},
		"NewAEGIS128LWithRandomNonce":         {k16, 16},
		"NewAEGIS128X2":                       {k16},
		"NewAEGIS128X2WithTagSize":            {k16, 32},
		"NewAEGIS128X2WithRandomNonce":        {k16, 32},
		"NewAEGIS128X4":                       {k16},
		"NewAEGIS128X4WithTagSize":            {k16, 16},
		"NewAEGIS128X4WithRandomNonce":        {k16, 16},
		"NewAEGIS256":                         {k32},
		"NewAEGIS256WithTagSize":              {k32, 32},
		"NewAEGIS256WithRandomNonce":          {k32, 16},
		"NewAEGIS256X2":                       {k32},
		"NewAEGIS256X2WithTagSize":            {k32, 16},
		"NewAEGIS256X2WithRandomNonce":        {k32, 32},
		"NewAEGIS256X4":                       {k32},
		"NewAEGIS256X4WithTagSize":            {k32, 32},
		"NewAEGIS256X4WithRandomNonce":        {k32, 16},
	}
}()

// TestNoExtraMethods: every value a constructor returns as cipher.AEAD (each Options method
// returning cipher.AEAD, found by reflection; the package functions of the same names, which
// call them; QUICPacketProtector.AEAD) has no exported method beyond the interface (Go's
// convention, which Go's own AEAD suite checks): extra capabilities go through package functions
// (UsageOf, IndicatorOf). *AESSIV is an exported type, not returned as cipher.AEAD, whose
// documented extra methods are exactly SealComponents and OpenComponents.
func TestNoExtraMethods(t *testing.T) {
	errType := reflect.TypeOf((*error)(nil)).Elem()
	opts := reflect.ValueOf(Options{})
	seen := map[reflect.Type]bool{}
	checked := map[string]bool{}
	check := func(t *testing.T, a cipher.AEAD) {
		typ := reflect.TypeOf(a)
		seen[typ] = true
		if extra := extraMethods(typ, aeadInterface); len(extra) > 0 {
			t.Errorf("%v returned as cipher.AEAD has exported methods beyond the interface: %v", typ, extra)
		}
	}
	for i := 0; i < opts.NumMethod(); i++ {
		m, mt := opts.Type().Method(i), opts.Method(i).Type()
		if mt.NumOut() != 2 || mt.Out(0) != aeadInterface || mt.Out(1) != errType {
			continue
		}
		checked[m.Name] = true
		t.Run(m.Name, func(t *testing.T) {
			args, ok := noExtraArgs[m.Name]
			if !ok {
				t.Fatalf("Options.%s returns cipher.AEAD: add its arguments to noExtraArgs", m.Name)
			}
			in := make([]reflect.Value, len(args))
			for j, a := range args {
				in[j] = reflect.ValueOf(a)
			}
			out := opts.Method(i).Call(in)
			a, _ := out[0].Interface().(cipher.AEAD)
			err, _ := out[1].Interface().(error)
			if m.Name == "NewGCMSIV" && !gcmSIVExpected(t) {
				// Refused on this libcrypto (TestGCMSIVAvailability); its AEAD would be an *aeadImpl,
				// the type of the other families.
				if a != nil || !errors.Is(err, errors.ErrUnsupported) {
					t.Fatalf("GCM-SIV on %s: %v, want ErrUnsupported", Version(), err)
				}
				return
			}
			if err != nil || a == nil {
				t.Fatalf("constructor failed: %v", err)
			}
			check(t, a)
		})
	}
	t.Run("QUICPacketProtector.AEAD", func(t *testing.T) {
		k, iv := make([]byte, 16), make([]byte, 12)
		p, err := NewQUICPacketProtector(tls.TLS_AES_128_GCM_SHA256, k, iv, k)
		if err != nil {
			t.Fatal(err)
		}
		check(t, p.AEAD())
	})

	// The package functions returning cipher.AEAD are the Options methods of the same names.
	funcs := packageFuncsReturningAEAD(t)
	for _, name := range funcs {
		if !checked[name] {
			t.Errorf("package function %s returns cipher.AEAD but Options has no method %s", name, name)
		}
	}
	if len(funcs) != len(checked) {
		t.Errorf("%d package functions return cipher.AEAD, %d Options methods", len(funcs), len(checked))
	}
	// Every concrete AEAD type implOf knows besides *AESSIV came from some constructor above.
	for _, typ := range []reflect.Type{reflect.TypeOf((*aeadImpl)(nil)), reflect.TypeOf((*randomNonceAEAD)(nil))} {
		if !seen[typ] {
			t.Errorf("no constructor returned %v", typ)
		}
	}
	sivExtra := extraMethods(reflect.TypeOf((*AESSIV)(nil)), aeadInterface)
	slices.Sort(sivExtra)
	if want := []string{"OpenComponents", "SealComponents"}; !slices.Equal(sivExtra, want) {
		t.Errorf("*AESSIV's methods beyond cipher.AEAD: %v, want %v (its documented API)", sivExtra, want)
	}
}

// packageFuncsReturningAEAD lists the package's top-level functions declared (in its non-test Go
// files) as returning (cipher.AEAD, error).
func packageFuncsReturningAEAD(t *testing.T) []string {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() || fd.Type.Results == nil {
				continue
			}
			if r := fd.Type.Results.List; len(r) == 2 && types.ExprString(r[0].Type) == "cipher.AEAD" &&
				types.ExprString(r[1].Type) == "error" {
				names = append(names, fd.Name.Name)
			}
		}
	}
	if len(names) == 0 {
		t.Fatal("found no package function returning cipher.AEAD")
	}
	return names
}
