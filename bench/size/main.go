// Command size prints what the genui release binary weighs and who makes
// it heavy: the stripped linux/amd64 binary as `make release` builds it,
// then each module's share of it and the largest packages, and whether the
// linker could drop unused methods (it cannot once any reachable function
// looks methods up by a name computed at run time, reflect's MethodByName:
// every exported method of every type stored in an interface is then kept,
// which for generated API clients is most of their code). With -whatif it
// also builds the binary as if that lookup were not reachable, to say what
// it costs. With -unused 'FROM=>TO ...' it reports what imports the program
// never calls bring in (a dependency's back ends it does not configure):
// the size of a build with the code using them deleted from a scratch copy
// of the importing module (prune.go), and the packages only they reach.
//
//	go run ./bench/size [-pkg ./cmd/genui] [-tags grpcnotrace] [-ldflags '-X ...'] [-top 25] [-whatif] [-unused 'FROM=>TO ...']
//
// How shares are counted: the unstripped binary's ELF symbols in .text,
// .rodata, .data and .noptrdata, by the package their name starts with,
// packages mapped to modules with `go list -deps`. The function table
// (.gopclntab, about a third of the binary) has no symbols of its own: it
// is split in proportion to each module's code. Strings and type data the
// linker pools (type descriptors, string literals) are listed as such:
// the symbol table does not say which package they belong to.
package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	pkg := flag.String("pkg", "./cmd/genui", "main package to build")
	tags := flag.String("tags", "", "build tags (comma-separated), as the release build uses")
	ldflags := flag.String("ldflags", "", "extra -ldflags (the release's -X version stamps); -s -w are added for the stripped build")
	top := flag.Int("top", 25, "modules and packages to list")
	whatif := flag.Bool("whatif", false, "also build with reflect's MethodByName in text/template made unreachable (a measurement, not a release build)")
	unused := flag.String("unused", "", "space-separated imports FROM=>TO that the program never calls at run time (a dependency's back ends it does not configure): report what only they bring in")
	flag.Parse()
	cuts, err := parseCuts(*unused)
	if err != nil {
		fmt.Fprintln(os.Stderr, "size:", err)
		os.Exit(2)
	}
	if err := run(os.Stdout, *pkg, *tags, *ldflags, *top, *whatif, cuts...); err != nil {
		fmt.Fprintln(os.Stderr, "size:", err)
		os.Exit(1)
	}
}

// build compiles pkg for linux/amd64 (CGO off, -trimpath) into dir/name.
func build(dir, name, pkg, tags, ldflags string, extra ...string) (string, error) {
	out := filepath.Join(dir, name)
	args := append([]string{"build", "-trimpath", "-o", out, "-ldflags", ldflags}, extra...)
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

func fileSize(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

func run(w io.Writer, pkg, tags, ldflags string, top int, whatif bool, cuts ...cut) error {
	dir, err := os.MkdirTemp("", "genui-size-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	stripped, err := build(dir, "genui-stripped", pkg, tags, strings.TrimSpace("-s -w "+ldflags))
	if err != nil {
		return err
	}
	full, err := build(dir, "genui-symbols", pkg, tags, ldflags)
	if err != nil {
		return err
	}
	sz, err := fileSize(stripped)
	if err != nil {
		return err
	}
	tagNote := ""
	if tags != "" {
		tagNote = ", -tags " + tags
	}
	fmt.Fprintf(w, "stripped linux/amd64 binary (CGO_ENABLED=0 -trimpath -ldflags '-s -w'%s): %d bytes = %s (%.1f MiB)\n",
		tagNote, sz, mb(sz), float64(sz)/(1<<20))

	graph, err := loadDeps(pkg, tags)
	if err != nil {
		return err
	}
	mods := graph.module
	shares, err := attribute(full, mods)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nsections: %s\n", shares.sectionLine())
	fmt.Fprintf(w, "\ntop modules (code + data + their share of the function table; %d modules, scaled to the stripped size):\n", len(shares.byModule))
	shares.print(w, shares.byModule, top, sz)
	fmt.Fprintf(w, "\ntop packages:\n")
	shares.print(w, shares.byPackage, top, sz)
	by := graph.broughtBy()
	direct := map[string]float64{}
	for m, v := range shares.byModule {
		if r, ok := by[m]; ok {
			direct[r] += v
		}
	}
	fmt.Fprintf(w, "\nby direct dependency of %s (the modules only it brings in, itself included):\n", graph.main)
	shares.print(w, direct, top, sz)

	if len(cuts) > 0 {
		gone := graph.onlyThrough(cuts)
		only := map[string]float64{}
		var sum float64
		for p := range gone {
			only[graph.module[p]] += shares.byPackage[p]
			sum += shares.byPackage[p]
		}
		names := make([]string, len(cuts))
		for i, c := range cuts {
			names[i] = c.from + " => " + c.to
		}
		fmt.Fprintf(w, "\nbrought in only by imports the program never calls (%s):\n", strings.Join(names, ", "))
		if alt, err := buildWithoutImports(dir, pkg, tags, ldflags, cuts); err != nil {
			fmt.Fprintf(w, "  not measured: %v\n", err)
		} else if asz, err := fileSize(alt); err != nil {
			return err
		} else {
			fmt.Fprintf(w, "  the binary without them (measurement only, the importers' code that uses them deleted in a scratch copy): %d bytes = %s (%.1f MiB, %+.1f MB)\n",
				asz, mb(asz), float64(asz)/(1<<20), float64(asz-sz)/1e6)
		}
		fmt.Fprintf(w, "  %s in %d packages, by module (code and data by symbol, without their type descriptors and strings):\n",
			mb(int64(sum*float64(sz)/shares.total)), len(gone))
		shares.print(w, only, top, sz)
	}

	blockers, err := reflectMethodBlockers(dir, pkg, tags, ldflags, graph)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	if len(blockers) == 0 {
		fmt.Fprintln(w, "method dead-code elimination: on (no reachable reflect method lookup by a computed name)")
	} else {
		fmt.Fprintln(w, "method dead-code elimination: OFF: the linker keeps every exported method of every type stored in an interface, because these reach reflect's MethodByName:")
		for _, b := range blockers {
			fmt.Fprintf(w, "  %s\n    its package is imported (directly or through the standard library) by: %s\n    the linker reached it first via: %s\n",
				b.fn, strings.Join(b.callers, ", "), strings.Join(b.path, " -> "))
		}
	}
	if whatif {
		alt, err := buildWithoutTemplateMethods(dir, pkg, tags, ldflags)
		if err != nil {
			return err
		}
		asz, err := fileSize(alt)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "what if text/template looked up no methods (measurement only, GOROOT overlay): %d bytes = %s (%+.1f MB)\n",
			asz, mb(asz), float64(asz-sz)/1e6)
	}
	return nil
}

// deps is pkg's build graph: every package's module ("std" for the
// standard library) and imports.
type deps struct {
	module  map[string]string
	imports map[string][]string
	main    string // the main module's path
}

func loadDeps(pkg, tags string) (*deps, error) {
	args := []string{"list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{if .Main}}!{{end}}{{else}}std{{end}} {{join .Imports \" \"}}"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	d := &deps{module: map[string]string{}, imports: map[string][]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if m, ok := strings.CutSuffix(f[1], "!"); ok {
			f[1], d.main = m, m
		}
		d.module[f[0]] = f[1]
		d.imports[f[0]] = f[2:]
	}
	return d, nil
}

// cut is an import (from imports to) that the program never calls at run
// time, such as a dependency's back end it does not configure.
type cut struct{ from, to string }

func parseCuts(s string) ([]cut, error) {
	var out []cut
	for _, f := range strings.Fields(s) {
		from, to, ok := strings.Cut(f, "=>")
		if !ok || from == "" || to == "" {
			return nil, fmt.Errorf("-unused: %q is not FROM=>TO", f)
		}
		out = append(out, cut{from, to})
	}
	return out, nil
}

// onlyThrough returns the packages the main module's packages reach only
// through the cut imports: those the build would leave out if the cut
// imports were gone.
func (d *deps) onlyThrough(cuts []cut) map[string]bool {
	skip := map[cut]bool{}
	for _, c := range cuts {
		skip[c] = true
	}
	seen := map[string]bool{}
	var stack []string
	for p, m := range d.module {
		if m == d.main {
			seen[p] = true
			stack = append(stack, p)
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, y := range d.imports[x] {
			if !seen[y] && !skip[cut{x, y}] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	out := map[string]bool{}
	for p := range d.module {
		if !seen[p] {
			out[p] = true
		}
	}
	return out
}

// broughtBy maps every module to the main module's direct dependency that
// brings it in, or to "(shared)" when several do.
func (d *deps) broughtBy() map[string]string {
	reach := map[string]map[string]bool{} // package -> direct dependencies reaching it
	for p, mod := range d.module {
		if mod != d.main {
			continue
		}
		for _, imp := range d.imports[p] {
			root := d.module[imp]
			if root == "std" || root == d.main || root == "" {
				continue
			}
			stack := []string{imp}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if reach[x] == nil {
					reach[x] = map[string]bool{}
				}
				if reach[x][root] {
					continue
				}
				reach[x][root] = true
				stack = append(stack, d.imports[x]...)
			}
		}
	}
	byModule := map[string]map[string]bool{}
	for p, roots := range reach {
		m := d.module[p]
		if m == "std" {
			continue
		}
		if byModule[m] == nil {
			byModule[m] = map[string]bool{}
		}
		for r := range roots {
			byModule[m][r] = true
		}
	}
	out := map[string]string{}
	for m, roots := range byModule {
		if len(roots) == 1 {
			for r := range roots {
				out[m] = r
			}
		} else {
			out[m] = "(shared by several)"
		}
	}
	return out
}

// symbolPackage is the import path a Go symbol name belongs to, or "".
// Where the last path element has dots (gopkg.in/yaml.v3), known decides
// between the candidates; nil takes the shortest.
func symbolPackage(name string, known map[string]string) string {
	name = strings.TrimPrefix(name, "type:")
	name = strings.TrimPrefix(name, "*")
	if rest, ok := strings.CutPrefix(name, "go:itab."); ok {
		name, _, _ = strings.Cut(strings.TrimPrefix(rest, "*"), ",")
	}
	if strings.HasPrefix(name, "go:") {
		return ""
	}
	// The package path ends at a '.' after the last '/' that comes before
	// any type arguments or receiver.
	end := len(name)
	if i := strings.IndexAny(name, "[("); i >= 0 {
		end = i
	}
	slash := strings.LastIndex(name[:end], "/")
	best := ""
	for i := slash + 1; i < end; i++ {
		if name[i] != '.' {
			continue
		}
		p := strings.TrimPrefix(name[:i], "vendor/")
		if best == "" {
			best = p
		}
		if _, ok := known[p]; ok {
			best = p
		}
	}
	return best
}

// shares is the attribution of a binary's bytes.
type shares struct {
	sections  map[string]uint64
	byModule  map[string]float64
	byPackage map[string]float64
	total     float64 // file bytes of the counted sections
}

const pooled = "(other runtime tables and data)"

// pools are the linker's symbols that hold every package's data of a kind.
var pools = map[string]string{
	"type:*":      "(type descriptors, all packages)",
	"go:string.*": "(string literals, all packages)",
	"go:funcdesc": "(function descriptors, all packages)",
}

func attribute(path string, mods map[string]string) (*shares, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &shares{sections: map[string]uint64{}, byModule: map[string]float64{}, byPackage: map[string]float64{}}
	counted := map[string]bool{".text": true, ".rodata": true, ".data": true, ".noptrdata": true,
		".gopclntab": true, ".typelink": true, ".itablink": true}
	for _, sec := range f.Sections {
		if counted[sec.Name] {
			s.sections[sec.Name] = sec.Size
			s.total += float64(sec.Size)
		}
	}
	code := map[string]float64{} // module -> .text bytes
	pkgCode := map[string]float64{}
	var attributed float64
	// Read-only data is mostly two symbols that span every package's type
	// descriptors and string literals; sizes there come from the address
	// of the next symbol.
	var rodata []elf.Symbol
	for _, sym := range syms {
		if int(sym.Section) < len(f.Sections) && f.Sections[sym.Section].Name == ".rodata" {
			rodata = append(rodata, sym)
		}
	}
	sort.Slice(rodata, func(i, j int) bool { return rodata[i].Value < rodata[j].Value })
	gap := map[string]uint64{} // symbol name -> bytes up to the next address
	if sec := f.Section(".rodata"); sec != nil {
		for i := 0; i < len(rodata); {
			// Symbols at one address: the pool's name (or else the last one)
			// gets the bytes up to the next address.
			j, pick := i, i
			for ; j < len(rodata) && rodata[j].Value == rodata[i].Value; j++ {
				if _, pool := pools[rodata[j].Name]; pool {
					pick = j
				} else if _, pool := pools[rodata[pick].Name]; !pool {
					pick = j
				}
			}
			next := sec.Addr + sec.Size
			if j < len(rodata) {
				next = rodata[j].Value
			}
			gap[rodata[pick].Name] += next - rodata[i].Value
			i = j
		}
	}
	for _, sym := range syms {
		if int(sym.Section) >= len(f.Sections) {
			continue
		}
		sec := f.Sections[sym.Section].Name
		size := float64(sym.Size)
		switch sec {
		case ".rodata":
			size = float64(gap[sym.Name])
			gap[sym.Name] = 0 // count a name once
		case ".text", ".data", ".noptrdata":
		default:
			continue
		}
		if size == 0 {
			continue
		}
		p := symbolPackage(sym.Name, mods)
		mod, ok := mods[p]
		if label, pool := pools[sym.Name]; pool {
			p, mod, ok = label, label, true
		}
		if !ok {
			p, mod = pooled, pooled
		}
		s.byModule[mod] += size
		s.byPackage[p] += size
		attributed += size
		if sec == ".text" {
			code[mod] += size
			pkgCode[p] += size
		}
	}
	// The function table follows the code.
	var allCode float64
	for _, c := range code {
		allCode += c
	}
	pcln := float64(s.sections[".gopclntab"])
	for m, c := range code {
		s.byModule[m] += pcln * c / allCode
	}
	for p, c := range pkgCode {
		s.byPackage[p] += pcln * c / allCode
	}
	// What the symbols do not cover (padding, symbol-less tables) is pooled.
	rest := s.total - attributed - pcln
	s.byModule[pooled] += rest
	s.byPackage[pooled] += rest
	return s, nil
}

func (s *shares) sectionLine() string {
	names := make([]string, 0, len(s.sections))
	for n := range s.sections {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return s.sections[names[i]] > s.sections[names[j]] })
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s %s", n, mb(int64(s.sections[n]))))
	}
	return strings.Join(parts, ", ")
}

// print lists the top entries of m, scaled so the counted sections add up
// to the stripped file's size.
func (s *shares) print(w io.Writer, m map[string]float64, top int, stripped int64) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	scale := float64(stripped) / s.total
	var shown, all float64
	for _, v := range m {
		all += v
	}
	for i, k := range keys {
		if i == top {
			break
		}
		shown += m[k]
		fmt.Fprintf(w, "  %8s %5.1f%%  %s\n", mb(int64(m[k]*scale)), 100*m[k]/s.total, k)
	}
	if len(keys) > top {
		fmt.Fprintf(w, "  %8s %5.1f%%  (%d more)\n", mb(int64((all-shown)*scale)), 100*(all-shown)/s.total, len(keys)-top)
	}
}

// blocker is a reachable function that looks methods up by a computed
// name, how the program reaches it, and the packages outside the standard
// library that import its package.
type blocker struct {
	fn      string
	path    []string
	callers []string
}

// reflectMethodBlockers asks the linker for its dependency graph
// (-ldflags=-dumpdep) and returns the functions outside package reflect
// that it marks <ReflectMethod>, each with a shortest path from the
// program's entry points.
func reflectMethodBlockers(dir, pkg, tags, ldflags string, d *deps) ([]blocker, error) {
	args := []string{"build", "-trimpath", "-o", filepath.Join(dir, "genui-dumpdep"), "-ldflags", strings.TrimSpace(ldflags + " -dumpdep")}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	edges := map[string][]string{}
	marked := map[string]bool{}
	sc := bufio.NewScanner(stderr)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var other []string
	for sc.Scan() {
		from, to, ok := strings.Cut(sc.Text(), " -> ")
		if !ok {
			other = append(other, sc.Text())
			continue
		}
		if strings.HasSuffix(from, " <ReflectMethod>") {
			from = strings.TrimSuffix(from, " <ReflectMethod>")
			marked[from] = true
		}
		from = trimAttr(from)
		edges[from] = append(edges[from], trimAttr(to))
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("go build -dumpdep: %v: %s", err, strings.Join(other[max(0, len(other)-5):], "\n"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	// Breadth-first from the entry points, remembering who reached whom.
	prev := map[string]string{}
	var queue []string
	for _, root := range []string{"go:main.inittasks", "main.main", "runtime.main"} {
		if _, ok := edges[root]; ok {
			prev[root] = ""
			queue = append(queue, root)
		}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range edges[x] {
			if _, seen := prev[y]; !seen {
				prev[y] = x
				queue = append(queue, y)
			}
		}
	}
	var out []blocker
	for fn := range marked {
		if strings.HasPrefix(fn, "reflect.") || strings.HasPrefix(fn, "type:") {
			continue
		}
		if _, ok := prev[fn]; !ok {
			continue
		}
		// Methods kept only because methods are kept are not causes: skip
		// functions the linker reached through a type's method table (the
		// -whatif build checks the verdict).
		var path []string
		for x := fn; x != ""; x = prev[x] {
			path = append(path, x)
		}
		viaMethodTable := false
		for i := 0; i+1 < len(path); i++ {
			if strings.HasPrefix(path[i+1], "type:") && !strings.HasPrefix(path[i], "type:") && !strings.HasPrefix(path[i], "go:") {
				viaMethodTable = true
			}
		}
		if viaMethodTable {
			continue
		}
		for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
			path[i], path[j] = path[j], path[i]
		}
		out = append(out, blocker{fn: fn, path: path[:len(path)-1], callers: importersOf(symbolPackage(fn, d.module), d)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].fn < out[j].fn })
	return out, nil
}

// importersOf returns the packages outside the standard library that
// import pkg directly or through standard library packages only.
func importersOf(pkg string, d *deps) []string {
	rev := map[string][]string{}
	for p, imps := range d.imports {
		for _, i := range imps {
			rev[i] = append(rev[i], p)
		}
	}
	seen := map[string]bool{pkg: true}
	var out []string
	queue := []string{pkg}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range rev[x] {
			if seen[y] {
				continue
			}
			seen[y] = true
			if d.module[y] == "std" {
				queue = append(queue, y)
			} else {
				out = append(out, y)
			}
		}
	}
	sort.Strings(out)
	return out
}

func trimAttr(s string) string {
	if i := strings.Index(s, " <"); i >= 0 {
		return s[:i]
	}
	return s
}

// buildWithoutTemplateMethods builds pkg with text/template's method lookup
// replaced by a constant name (through -overlay, in a scratch copy of the
// file): the size the binary would have if no template were executed.
func buildWithoutTemplateMethods(dir, pkg, tags, ldflags string) (string, error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", err
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src", "text", "template", "exec.go")
	b, err := os.ReadFile(src)
	if err != nil {
		return "", err
	}
	const lookup = "ptr.MethodByName(fieldName)"
	if !bytes.Contains(b, []byte(lookup)) {
		return "", errors.New("text/template/exec.go no longer calls " + lookup + ": update bench/size")
	}
	patched := filepath.Join(dir, "exec.go")
	if err := os.WriteFile(patched, bytes.Replace(b, []byte(lookup), []byte(`ptr.MethodByName("")`), 1), 0o644); err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, fmt.Appendf(nil, `{"Replace":{%q:%q}}`, src, patched), 0o644); err != nil {
		return "", err
	}
	return build(dir, "genui-whatif", pkg, tags, strings.TrimSpace("-s -w "+ldflags), "-overlay", overlay)
}
