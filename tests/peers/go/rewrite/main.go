// Command rewrite adapts one Go source file of a peer's test suite for tests/peers/run.py, by syntax
// only (go/ast), so that the suite runs outside its home package: it renames the package, maps
// import paths (the constructors' packages to libaead's adapters; internal packages to copies),
// drops or keeps top-level declarations by name, and removes the imports left unused.
//
//	rewrite -in F -out F [-pkg NAME] [-import OLD=NEW]... [-drop FUNC[=RUN,RUN...]]... [-keep NAME]...
//
// -drop FUNC=RUN,... also checks that FUNC's t.Run names are exactly those listed, so that a case
// the suite adds to a dropped test is noticed rather than dropped unseen.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, " ") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	in := flag.String("in", "", "source file")
	out := flag.String("out", "", "output file")
	pkg := flag.String("pkg", "", "new package name")
	var imports, drops, keeps multi
	flag.Var(&imports, "import", "OLD=NEW import path mapping")
	flag.Var(&drops, "drop", "FUNC[=RUN,RUN...]: drop a top-level function (checking its t.Run names)")
	flag.Var(&keeps, "keep", "keep only the top-level declarations of these names")
	flag.Parse()
	if err := run(*in, *out, *pkg, imports, drops, keeps); err != nil {
		fmt.Fprintf(os.Stderr, "rewrite %s: %v\n", *in, err)
		os.Exit(1)
	}
}

func run(in, out, pkg string, imports, drops, keeps []string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, in, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	if pkg != "" {
		f.Name.Name = pkg
	}
	for _, d := range drops {
		name, runs, checked := strings.Cut(d, "=")
		fd := findFunc(f, name)
		if fd == nil {
			return fmt.Errorf("-drop %s: no such function", name)
		}
		if checked {
			got, want := runNames(fd), strings.Split(runs, ",")
			if !slices.Equal(got, want) {
				return fmt.Errorf("-drop %s: its t.Run cases are %v, expected %v", name, got, want)
			}
		}
		f.Decls = slices.DeleteFunc(f.Decls, func(d ast.Decl) bool { return d == fd })
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		f.Comments = slices.DeleteFunc(f.Comments, func(c *ast.CommentGroup) bool {
			return c.Pos() >= start && c.End() <= fd.End()
		})
	}
	if len(keeps) > 0 {
		f.Decls = keepOnly(f.Decls, keeps)
		// Only the file's header (its copyright notice) is kept: the comments of the dropped
		// declarations would float into the kept ones.
		f.Comments = slices.DeleteFunc(f.Comments, func(c *ast.CommentGroup) bool { return c.End() > f.Package })
	}
	for _, m := range imports {
		old, new, ok := strings.Cut(m, "=")
		if !ok {
			return fmt.Errorf("-import %q: want OLD=NEW", m)
		}
		mapImport(f, old, new)
	}
	removeUnusedImports(f)
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func findFunc(f *ast.File, name string) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return fd
		}
	}
	return nil
}

// runNames are the string-literal names of the t.Run calls in fd.
func runNames(fd *ast.FuncDecl) []string {
	var names []string
	ast.Inspect(fd, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" {
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				names = append(names, s)
			}
		}
		return true
	})
	return names
}

func keepOnly(decls []ast.Decl, keep []string) []ast.Decl {
	var kept []ast.Decl
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && slices.Contains(keep, d.Name.Name) {
				kept = append(kept, d)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				kept = append(kept, d)
				continue
			}
			d.Specs = slices.DeleteFunc(d.Specs, func(s ast.Spec) bool {
				switch s := s.(type) {
				case *ast.TypeSpec:
					return !slices.Contains(keep, s.Name.Name)
				case *ast.ValueSpec:
					return !slices.ContainsFunc(s.Names, func(n *ast.Ident) bool { return slices.Contains(keep, n.Name) })
				}
				return true
			})
			if len(d.Specs) > 0 {
				d.Doc = nil
				kept = append(kept, d)
			}
		}
	}
	return kept
}

// mapImport replaces the import path old by new, naming the import after old's last element
// when new's differs, so that the code using it is unchanged.
func mapImport(f *ast.File, old, new string) {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == old {
			imp.Path.Value = strconv.Quote(new)
			if imp.Name == nil && path.Base(old) != path.Base(new) {
				imp.Name = ast.NewIdent(path.Base(old))
			}
		}
	}
}

// removeUnusedImports drops the imports whose name no selector of the file uses.
func removeUnusedImports(f *ast.File) {
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	unused := func(imp *ast.ImportSpec) bool {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		return name != "_" && name != "." && !used[name]
	}
	f.Imports = slices.DeleteFunc(f.Imports, unused)
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			g.Specs = slices.DeleteFunc(g.Specs, func(s ast.Spec) bool { return unused(s.(*ast.ImportSpec)) })
		}
	}
	f.Decls = slices.DeleteFunc(f.Decls, func(d ast.Decl) bool {
		g, ok := d.(*ast.GenDecl)
		return ok && g.Tok == token.IMPORT && len(g.Specs) == 0
	})
}
