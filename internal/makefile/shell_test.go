package makefile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommands reads recipes as make expands them and the shell splits and unquotes them.
func TestCommands(t *testing.T) {
	const scaffold = `LOCALBIN ?= $(shell pwd)/bin
OPERATOR_SDK ?= $(LOCALBIN)/operator-sdk
KUSTOMIZE ?= $(LOCALBIN)/kustomize
VERSION ?= 0.0.1
IMG ?= controller:latest
BUNDLE_GEN_FLAGS ?= -q --overwrite --version $(VERSION)
`
	tests := []struct {
		name, makefile, target string
		opts                   []Option
		want                   []string // one line per command: dir| words, an unread word as <why-part>
		problems               []string
	}{
		{name: "operator-sdk scaffold", target: "bundle", makefile: scaffold + `
bundle: manifests kustomize operator-sdk ## Generate bundle manifests and metadata.
	$(OPERATOR_SDK) generate kustomize manifests -q
	cd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG)
	$(KUSTOMIZE) build config/manifests | $(OPERATOR_SDK) generate bundle $(BUNDLE_GEN_FLAGS)
	$(OPERATOR_SDK) bundle validate ./bundle
`, want: []string{
			"|<shell> generate kustomize manifests -q",
			"config/manager|<shell> edit set image controller=controller:latest",
			"|<shell> build config/manifests",
			"|<shell> generate bundle -q --overwrite --version 0.0.1 <stdin: build>",
			"|<shell> bundle validate ./bundle"}},
		{name: "quotes and escapes", target: "bundle", makefile: `CHANNELS ?= fast,fast-\$${CI_X_VERSION}.\$${CI_Y_VERSION}
FLAGS = -q --extra-service-accounts "velero,non-admin-controller" --channels=$(CHANNELS)
bundle:
	@operator-sdk generate bundle $(FLAGS) --package 'my pkg' \
		--output-dir bundle/$@
`, want: []string{`|operator-sdk generate bundle -q --extra-service-accounts velero,non-admin-controller --channels=fast,fast-${CI_X_VERSION}.${CI_Y_VERSION} --package my pkg --output-dir bundle/bundle`}},
		{name: "unread parts stay words", target: "bundle", makefile: `bundle:
	operator-sdk generate bundle --version $(shell git describe) --package $$PKG --channels=$$(cat ch) x*.yaml
`, want: []string{`|operator-sdk generate bundle --version <runs a shell command> --package <$PKG, a variable of the shell> <command substitution> <pattern the shell matches>`}},
		{name: "loop over profiles, sub-make", target: "bundles", makefile: `PROFILES := a b
bundles:
	@for profile in $(PROFILES); do \
		$(MAKE) bundle PROFILE=$$profile; \
	done
`, want: []string{"|make bundle PROFILE=a", "|make bundle PROFILE=b"}},
		{name: "loop over what make cannot read", target: "bundles", makefile: `PROFILES := $(shell find config/manifests -mindepth 1 -maxdepth 1 -type d)
bundles:
	for p in $(PROFILES); do $(MAKE) bundle PROFILE=$$p; done
`, want: []string{"|make bundle <the variable of the loop over PROFILES>"}},
		{name: "target-specific variables and the command line", target: "bundle", opts: []Option{Override("PKG", "cli")}, makefile: `VERSION = 1.0.0
bundle: VERSION = 2.0.0
bundle: FLAGS += --extra
bundle: PKG = ignored
FLAGS = --base
bundle:
	operator-sdk generate bundle --version $(VERSION) $(FLAGS) --package $(PKG)
other:
	echo $(VERSION)
`, want: []string{"|operator-sdk generate bundle --version 2.0.0 --base --extra --package cli"}},
		{name: "a condition and cd in a subshell", target: "bundle", makefile: `bundle:
	(cd operator && kustomize build config/default) | operator-sdk generate bundle
	if [ -n "$$X" ]; then operator-sdk generate bundle --package x; fi
`, want: []string{"operator|kustomize build config/default", "|operator-sdk generate bundle <stdin: build>",
			"|[ -n <$X, a variable of the shell> ] (under a shell if)", "|operator-sdk generate bundle --package x (under a shell if)"}},
		{name: "a line the shell cannot parse", target: "bundle", makefile: "bundle:\n\techo \"unterminated\n", problems: []string{"Makefile:2: echo \"unterminated: not read as the shell reads it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := read(t, tt.makefile, map[string]string{}, tt.opts...)
			cmds, problems := f.Commands(tt.target)
			var got []string
			for _, c := range cmds {
				got = append(got, describe(c))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
			for _, p := range tt.problems {
				if !strings.Contains(strings.Join(problems, "\n"), p) {
					t.Errorf("problems %q lack %q", problems, p)
				}
			}
		})
	}
}

// describe renders a command for comparison: unread words by a short part of why.
func describe(c Command) string {
	var words []string
	for _, w := range c.Args {
		words = append(words, wordText(w))
	}
	s := wordText(c.Dir) + "|" + strings.Join(words, " ")
	if c.Stdin != nil {
		s += " <stdin: " + c.Stdin.Arg(1).Text + ">"
	}
	if c.Cond != "" {
		s += " (under a shell " + strings.Fields(c.Cond[strings.Index(c.Cond, "shell")+6:])[0] + ")"
	}
	return s
}

func wordText(w Word) string {
	if w.Unread == "" {
		return w.Text
	}
	if strings.Contains(w.Text, "operator-sdk") || strings.Contains(w.Text, "kustomize") {
		return "<shell>"
	}
	for _, k := range []string{"$PKG, a variable of the shell", "$X, a variable of the shell", "command substitution", "pattern the shell matches", "the variable of the loop over PROFILES", "runs a shell command"} {
		if strings.Contains(w.Unread, k) {
			return "<" + k + ">"
		}
	}
	return "<" + w.Unread + ">"
}
