package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
)

// TestUnknownSubcommand walks the whole command tree: on every command group (the root
// included) a mistyped subcommand is a usage error (exit 2) naming the group and suggesting the
// subcommand, an argument that resembles none is refused too, and the group alone still prints
// its help with exit 0.
func TestUnknownSubcommand(t *testing.T) {
	root := newRootCmd(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	var groups []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasAvailableSubCommands() {
			groups = append(groups, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if len(groups) < 7 { // opack, catalog, catalog template, completion, convert, generate, image, validate
		t.Fatalf("found %d command groups, want at least 7", len(groups))
	}
	for _, g := range groups {
		path := strings.Fields(g.CommandPath())[1:]
		var sub string
		for _, c := range g.Commands() {
			if c.IsAvailableCommand() {
				sub = c.Name()
				break
			}
		}
		typo := misspell(sub)
		t.Run(strings.Join(append([]string{"opack"}, path...), " "), func(t *testing.T) {
			code, stdout, stderr := runOpack(t, "", append(path, typo, "x")...)
			want := "unknown command \"" + typo + "\" for \"" + g.CommandPath() + "\"\n\nDid you mean this?\n\t" + sub + "\n"
			if code != exitUsage || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", append(path, typo, "x"), code, stdout, stderr, exitUsage, want)
			}
			code, stdout, stderr = runOpack(t, "", append(path, "zzzzzzzz")...)
			if code != exitUsage || !strings.Contains(stderr, `unknown command "zzzzzzzz"`) || strings.Contains(stderr, "Did you mean") || stdout != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, an unknown command and no suggestion", append(path, "zzzzzzzz"), code, stdout, stderr, exitUsage)
			}
			if g == root {
				return // the root alone prints its help too, but that is cobra's own behaviour
			}
			code, stdout, stderr = runOpack(t, "", path...)
			_, help, _ := runOpack(t, "", append(path, "--help")...)
			if code != exitOK || stderr != "" {
				t.Errorf("%v: exit %d, stderr %q; want exit 0 and the group's help", path, code, stderr)
			}
			if diff := cmp.Diff(help, stdout); diff != "" {
				t.Errorf("%v: output differs from --help (-want +got):\n%s", path, diff)
			}
		})
	}
}

// misspell swaps the last two letters of name, as a hurried typist does (bundle → bundel), or
// doubles the last one when they are the same letter (add → addd).
func misspell(name string) string {
	b := []byte(name)
	n := len(b)
	if b[n-2] == b[n-1] {
		return name + name[n-1:]
	}
	b[n-2], b[n-1] = b[n-1], b[n-2]
	return string(b)
}
