package adopt

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/makefile"
)

// recipe is what the Makefile's bundle target runs, read as make and the shell would run it:
// the flags of its `operator-sdk generate kustomize manifests`, `kustomize build` and
// `operator-sdk generate bundle` commands.
type recipe struct {
	Target string
	// At is the generate bundle command's line.
	At makefile.Line
	// Flags of generate bundle that were given (a flag given is in set, its read value in val).
	Package, KustomizeDir, OutputDir, Version, DefaultChannel string
	Channels, ExtraServiceAccounts                            []string
	set                                                       map[string]bool
	// BuildDir is the folder `kustomize build` reads for generate bundle's input ("" when the
	// input is not a kustomize build of the project).
	BuildDir string
	// Manifests is the generate kustomize manifests step (nil when the recipe does not run it).
	Manifests *manifestsStep
	// Dir is where the recipe's cd moved generate bundle ("" for the project folder).
	Dir string
	// Notes name what make bundle does that opack.yaml does not carry, with the line.
	Notes []string
	// controllerGen records that the controller-gen note was made.
	controllerGen bool
}

// manifestsStep is the recipe's `operator-sdk generate kustomize manifests`.
type manifestsStep struct {
	APIsDir, InputDir, OutputDir, Package string
}

// Has reports whether the recipe's generate bundle gives the flag.
func (r *recipe) Has(flag string) bool { return r != nil && r.set[flag] }

// stopError is a value that decides what is built (the package, the kustomize folder, the
// bundle folder) and that init cannot read: init stops and says how to give it.
type stopError struct {
	at        makefile.Line
	what, why string
	fix       string
}

func (e *stopError) Error() string {
	return fmt.Sprintf("%s: %s: %s is not known without running make: %s; fix: %s", e.at.Pos, firstLine(e.at.Text), e.what, e.why, e.fix)
}

func firstLine(s string) string {
	first, _, more := strings.Cut(strings.TrimSpace(s), "\n")
	if more {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(first), "\\")) + " …"
	}
	return first
}

// flagSpec is how operator-sdk's pflag set reads a flag: its long name, whether it takes a value.
type flagSpec struct {
	name  string
	value bool
}

// generateBundleFlags are operator-sdk v1.42.3's `generate bundle` flags (and its global ones).
var generateBundleFlags = specs(map[string]bool{
	"version": true, "v": true, "input-dir": true, "deploy-dir": true, "crds-dir": true, "kustomize-dir": true,
	"output-dir": true, "channels": true, "default-channel": true, "package": true, "extra-service-accounts": true,
	"plugins": true, "manifests": false, "metadata": false, "stdout": false, "overwrite": false, "quiet": false, "q": false,
	"use-image-digests": false, "verbose": false, "help": false, "h": false,
})

// kustomizeManifestsFlags are operator-sdk's `generate kustomize manifests` flags.
var kustomizeManifestsFlags = specs(map[string]bool{
	"apis-dir": true, "input-dir": true, "output-dir": true, "package": true, "plugins": true,
	"interactive": false, "quiet": false, "q": false, "verbose": false, "help": false, "h": false,
})

func specs(m map[string]bool) map[string]flagSpec {
	out := map[string]flagSpec{}
	for n, v := range m {
		out[n] = flagSpec{name: n, value: v}
	}
	out["v"], out["q"], out["h"] = flagSpec{"version", true}, flagSpec{"quiet", false}, flagSpec{"help", false}
	return out
}

// flagValue is one flag given on a command line.
type flagValue struct {
	name string
	val  makefile.Word
	pos  int // its index among the words
}

// parsedFlags are a command's flags as pflag reads them; free are the other words (positional
// arguments, or an unread word that may hold any flag).
type parsedFlags struct {
	flags   []flagValue
	unknown []string
	free    []int // indexes of the positional words
	words   []makefile.Word
}

// parseFlags reads words (after the subcommand) as pflag would; an unread word is free.
func parseFlags(words []makefile.Word, spec map[string]flagSpec) parsedFlags {
	pf := parsedFlags{words: words}
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, val, hasVal := "", "", false
		switch {
		case strings.HasPrefix(w.Text, "--") && len(w.Text) > 2:
			name, val, hasVal = cut(w.Text[2:])
		case strings.HasPrefix(w.Text, "-") && len(w.Text) > 1 && !strings.HasPrefix(w.Text, "-…"):
			name, val, hasVal = cut(w.Text[1:])
		default:
			pf.free = append(pf.free, i)
			continue
		}
		if strings.Contains(name, "…") {
			pf.free = append(pf.free, i)
			continue
		}
		sp, ok := spec[name]
		if !ok {
			pf.unknown = append(pf.unknown, w.Text)
			continue
		}
		fv := flagValue{name: sp.name, pos: i}
		switch {
		case hasVal:
			fv.val = makefile.Word{Text: val, Unread: w.Unread}
		case sp.value && i+1 < len(words):
			i++
			fv.val = words[i]
		case sp.value:
			fv.val = makefile.Word{Unread: "the flag has no value"}
		default:
			fv.val = makefile.Word{Text: "true"}
		}
		pf.flags = append(pf.flags, fv)
	}
	return pf
}

func cut(s string) (name, val string, ok bool) { return strings.Cut(s, "=") }

// last returns the flag's last value (pflag keeps the last), and whether it is decided: no
// unread free word after it that could hold the same flag.
func (pf parsedFlags) last(name string) (flagValue, bool, string) {
	var got *flagValue
	for i := range pf.flags {
		if pf.flags[i].name == name {
			got = &pf.flags[i]
		}
	}
	for _, i := range pf.free {
		if w := pf.words[i]; w.Unread != "" && (got == nil || i > got.pos) {
			return flagValue{}, false, w.Unread
		}
	}
	if got == nil {
		return flagValue{}, false, ""
	}
	return *got, true, ""
}

// all returns every value of a repeatable flag.
func (pf parsedFlags) all(name string) []flagValue {
	var out []flagValue
	for _, f := range pf.flags {
		if f.name == name {
			out = append(out, f)
		}
	}
	return out
}

// readRecipe reads the bundle target of f. It returns nil when no target runs generate bundle.
func readRecipe(f *makefile.File) (*recipe, error) {
	target, cmds, problems := bundleTarget(f)
	if target == "" {
		return nil, nil
	}
	r := &recipe{Target: target, set: map[string]bool{}}
	cmds, problems = f.CommandsMade(target) // the prerequisites run first
	for _, p := range problems {
		r.Notes = append(r.Notes, "Makefile: "+p)
	}
	gbAt := -1
	for i, c := range cmds {
		switch {
		case c.IsGenerateBundle() && gbAt < 0:
			gbAt = i
		case c.IsGenerateBundle():
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: a second generate bundle in make %s: opack reads the first (%s)", c.At.Pos, firstLine(c.At.Text), target, cmds[gbAt].At.Pos))
		}
	}
	if err := r.generateBundle(cmds[gbAt]); err != nil {
		return r, err
	}
	for i, c := range cmds {
		switch {
		case i == gbAt || c.IsGenerateBundle():
		case c.IsGenerateKustomizeManifests() && i < gbAt:
			r.manifestsStep(c)
		case i < gbAt:
			r.before(c, cmds[gbAt].Stdin)
		default:
			r.after(c)
		}
	}
	return r, nil
}

// before notes what the recipe does to the project before generate bundle that opack.yaml does
// not carry: a kustomize edit other than set image, a file written into config/ or the bundle.
func (r *recipe) before(c makefile.Command, stdin *makefile.Command) {
	note := func(what string) {
		if c.Cond != "" {
			what += " (" + c.Cond + ")"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: %s", c.At.Pos, firstLine(c.At.Text), what))
	}
	switch {
	case stdin != nil && c.At == stdin.At && c.IsKustomizeBuild():
	case c.Tool("make"):
		note(fmt.Sprintf("make %s runs before generate bundle; opack does not run it", strings.Join(c.Texts()[1:], " ")))
	case c.Tool("controller-gen") && generates(c):
		if !r.controllerGen {
			r.controllerGen = true
			note("make " + r.Target + " regenerates CRDs, RBAC or webhooks from the Go code with controller-gen first; opack builds the committed files: run it (make manifests) before opack build when the API changed")
		}
	case c.Tool("kustomize") && c.IndexOf("edit", "set", "image") == 1:
	case c.Tool("kustomize") && c.IndexOf("edit") == 1:
		note(fmt.Sprintf("kustomize %s changes the kustomization before generate bundle; opack does not run it: opack builds %s as committed",
			strings.Join(c.Texts()[1:], " "), first(r.BuildDir, "config/manifests")))
	case r.writes(c, "config", r.KustomizeDir, r.BuildDir):
		note("it changes the kustomize input before generate bundle; opack does not run it: opack builds the committed files")
	case r.writes(c, r.bundleDir(), r.dockerfile()):
		note(fmt.Sprintf("it writes into %s before generate bundle; opack does not run it: opack generates the bundle alone", r.bundleDir()))
	}
}

// generates reports whether a controller-gen command writes manifests (crd, rbac, webhook
// generators; `controller-gen --version` does not).
func generates(c makefile.Command) bool {
	for _, a := range c.Args[1:] {
		for _, g := range []string{"crd", "rbac:", "webhook", "output:"} {
			if strings.HasPrefix(a.Text, g) {
				return true
			}
		}
	}
	return false
}

// after notes a command that changes the bundle once generate bundle wrote it.
func (r *recipe) after(c makefile.Command) {
	if c.Tool("make") {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: make %s runs make %s after generate bundle; opack does not run it, so its bundle is generate bundle's alone",
			c.At.Pos, firstLine(c.At.Text), r.Target, strings.Join(c.Texts()[1:], " ")))
		return
	}
	if r.writes(c, r.bundleDir(), r.dockerfile()) {
		n := fmt.Sprintf("%s: %s: make %s changes the bundle after generate bundle; opack does not run it, so its bundle is generate bundle's alone",
			c.At.Pos, firstLine(c.At.Text), r.Target)
		if c.Cond != "" {
			n += " (" + c.Cond + ")"
		}
		r.Notes = append(r.Notes, n)
	}
}

func (r *recipe) bundleDir() string {
	return first(r.OutputDir, path.Join(first(r.Dir, "."), "bundle"))
}
func (r *recipe) dockerfile() string { return path.Join(first(r.Dir, "."), "bundle.Dockerfile") }

// writingTools are the programs a recipe changes files with.
var writingTools = []string{"sed", "yq", "cp", "mv", "rm", "tee", "install", "ln", "touch", "xargs", "patch", "python", "python3"}

// writes reports whether the command may write a file below one of paths: a program that
// changes files naming one of them (or run inside one), or an output redirection into one.
func (r *recipe) writes(c makefile.Command, paths ...string) bool {
	inside := func(w makefile.Word) bool {
		if w.Unread != "" || w.Text == "" {
			return false
		}
		p := r.inDir(c, w.Text)
		for _, d := range paths {
			if d != "" && (p == d || strings.HasPrefix(p, d+"/")) {
				return true
			}
		}
		return false
	}
	for _, w := range c.Writes {
		if inside(w) {
			return true
		}
	}
	tool := false
	for _, t := range writingTools {
		tool = tool || c.Tool(t)
	}
	if !tool {
		return false
	}
	if c.Dir.Text != "" && inside(makefile.Word{Text: "."}) {
		return true // a tool run inside the folder (cd config/manifests/bases && python3 inject.py)
	}
	args := c.Args[1:]
	if (c.Tool("cp") || c.Tool("install")) && len(args) > 0 {
		args = args[len(args)-1:] // the sources are only read
	}
	for _, a := range args {
		if inside(a) {
			return true
		}
	}
	return false
}

// bundleTarget is the target whose recipe runs generate bundle: bundle when it does, else the
// first (by name) that does.
func bundleTarget(f *makefile.File) (string, []makefile.Command, []string) {
	runs := func(t string) ([]makefile.Command, []string, bool) {
		cmds, problems := f.Commands(t)
		for _, c := range cmds {
			if c.IsGenerateBundle() {
				return cmds, problems, true
			}
		}
		return nil, nil, false
	}
	if cmds, problems, ok := runs("bundle"); ok {
		return "bundle", cmds, problems
	}
	targets := f.Targets()
	sort.Strings(targets)
	for _, t := range targets {
		if cmds, problems, ok := runs(t); ok {
			return t, cmds, problems
		}
	}
	return "", nil, nil
}

// manifestsStep reads `operator-sdk generate kustomize manifests`.
func (r *recipe) manifestsStep(c makefile.Command) {
	pf := parseFlags(c.Args[4:], kustomizeManifestsFlags)
	m := &manifestsStep{}
	for _, fl := range []struct {
		name string
		dst  *string
	}{{"apis-dir", &m.APIsDir}, {"input-dir", &m.InputDir}, {"output-dir", &m.OutputDir}, {"package", &m.Package}} {
		v, ok, why := pf.last(fl.name)
		switch {
		case why != "" || (ok && v.val.Unread != ""):
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: generate kustomize manifests --%s not read: %s", c.At.Pos, firstLine(c.At.Text), fl.name, first(why, v.val.Unread)))
		case ok:
			*fl.dst = r.inDir(c, v.val.Text)
			if fl.name == "package" {
				*fl.dst = v.val.Text
			}
		}
	}
	if len(pf.unknown) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: generate kustomize manifests %s not read", c.At.Pos, firstLine(c.At.Text), strings.Join(pf.unknown, " ")))
	}
	r.Manifests = m
}

// inDir makes a path of the command relative to the project: below the folder a cd moved to.
func (r *recipe) inDir(c makefile.Command, p string) string {
	if c.Dir.Text != "" && !path.IsAbs(p) {
		p = path.Join(c.Dir.Text, p)
	}
	return path.Clean(strings.TrimSuffix(p, "/"))
}

// generateBundle reads `operator-sdk generate bundle` and what is piped into it.
func (r *recipe) generateBundle(c makefile.Command) error {
	r.At = c.At
	if c.Dir.Unread != "" {
		return &stopError{at: c.At, what: "the folder generate bundle runs in (cd)", why: c.Dir.Unread, fix: "run opack init in that folder, or pass --kustomize-dir and --bundle-dir"}
	}
	r.Dir = c.Dir.Text
	if c.Cond != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: generate bundle may not run: %s", c.At.Pos, firstLine(c.At.Text), c.Cond))
	}
	pf := parseFlags(c.Args[3:], generateBundleFlags)
	for _, fv := range pf.flags {
		r.set[fv.name] = true
	}
	decides := []struct {
		flag, what, fix string
		dst             *string
	}{
		{"package", "the package name (--package)", "pass --package to opack init", &r.Package},
		{"kustomize-dir", "the kustomize folder (--kustomize-dir)", "pass --kustomize-dir to opack init", &r.KustomizeDir},
		{"output-dir", "the bundle folder (--output-dir)", "pass --bundle-dir to opack init", &r.OutputDir},
	}
	for _, d := range decides {
		v, ok, why := pf.last(d.flag)
		if why == "" && ok {
			why = v.val.Unread
		}
		if why != "" {
			return &stopError{at: c.At, what: d.what, why: why, fix: d.fix}
		}
		if ok {
			*d.dst = v.val.Text
			if d.flag != "package" {
				*d.dst = r.inDir(c, v.val.Text)
			}
		}
	}
	r.other(c, pf)
	if c.Stdin != nil && c.Stdin.IsKustomizeBuild() {
		return r.kustomizeBuild(*c.Stdin)
	}
	if !r.set["input-dir"] && !r.set["deploy-dir"] {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: generate bundle reads its manifests from what is piped into it, not from kustomize build: opack builds %s", c.At.Pos, firstLine(c.At.Text), first(r.KustomizeDir, "config/manifests")))
	}
	return nil
}

// other reads the flags besides those that decide what is built.
func (r *recipe) other(c makefile.Command, pf parsedFlags) {
	note := func(format string, args ...any) {
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: ", c.At.Pos, firstLine(c.At.Text))+fmt.Sprintf(format, args...))
	}
	str := func(name string, dst *string) {
		v, ok, why := pf.last(name)
		if why == "" && ok {
			why = v.val.Unread
		}
		switch {
		case why != "":
			note("generate bundle --%s not read: %s", name, why)
		case ok:
			*dst = v.val.Text
		}
	}
	str("version", &r.Version)
	var channels, def string
	str("channels", &channels)
	str("default-channel", &def)
	if channels != "" {
		r.Channels = strings.Split(channels, ",")
	}
	r.DefaultChannel = def
	for _, fv := range pf.all("extra-service-accounts") {
		if fv.val.Unread != "" {
			note("generate bundle --extra-service-accounts not read: %s", fv.val.Unread)
			continue
		}
		r.ExtraServiceAccounts = append(r.ExtraServiceAccounts, strings.Split(fv.val.Text, ",")...)
	}
	for _, fv := range pf.flags {
		switch fv.name {
		case "use-image-digests":
			if fv.val.Text != "false" {
				note("generate bundle --use-image-digests: opack build keeps tags (opack generate bundle --use-image-digests pins them)")
			}
		case "overwrite":
			if fv.val.Text == "false" {
				note("generate bundle --overwrite=false: opack build rewrites the bundle metadata")
			}
		case "input-dir", "deploy-dir", "crds-dir", "stdout", "manifests", "metadata", "plugins":
			note("generate bundle --%s is not carried over to %s: opack build generates the whole bundle from the kustomize folder", fv.name, "opack.yaml")
		}
	}
	if len(pf.unknown) > 0 {
		note("generate bundle %s not read", strings.Join(pf.unknown, " "))
	}
	for _, i := range pf.free {
		if w := pf.words[i]; w.Unread != "" {
			note("a word of generate bundle is not read (it may hold flags): %s", w.Unread)
		} else {
			note("generate bundle %q is not a flag operator-sdk reads", w.Text)
		}
	}
}

// kustomizeBuild reads the `kustomize build DIR` piped into generate bundle.
func (r *recipe) kustomizeBuild(c makefile.Command) error {
	i := 2
	if c.Tool("kubectl") {
		i = 2
	}
	var dir *makefile.Word
	for _, a := range c.Args[i:] {
		if strings.HasPrefix(a.Text, "-") && a.Unread == "" {
			r.Notes = append(r.Notes, fmt.Sprintf("%s: %s: kustomize build %s is not carried over to opack.yaml", c.At.Pos, firstLine(c.At.Text), a.Text))
			continue
		}
		if dir == nil {
			dir = &a
		}
	}
	if dir == nil {
		r.BuildDir = r.inDir(c, ".")
		return nil
	}
	if dir.Unread != "" || c.Dir.Unread != "" {
		return &stopError{at: c.At, what: "the folder kustomize build reads", why: first(c.Dir.Unread, dir.Unread), fix: "pass --kustomize-dir to opack init"}
	}
	r.BuildDir = r.inDir(c, dir.Text)
	return nil
}

// MakefilePackage returns the package the Makefile in dir passes to operator-sdk generate bundle
// (--package on the bundle target's recipe, after make expansion and shell quoting) and the
// position of that command; "" when there is no Makefile, no such flag, or one opack cannot read
// (a profile variable, a $(shell ...)): build then compares with nothing.
func MakefilePackage(dir string) (pkg, at string) {
	f, err := makefile.Read(filepath.Join(dir, "Makefile"))
	if err != nil {
		return "", ""
	}
	rec, err := readRecipe(f)
	if err != nil || rec == nil || rec.Package == "" {
		return "", ""
	}
	return rec.Package, rec.At.Pos.String()
}
