package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
)

var updateHelp = flag.Bool("update-help", false, "rewrite testdata/help.golden from the current command tree")

const helpGolden = "testdata/help.golden"

// TestHelpGolden walks the command tree and compares every command's --help output with testdata/help.golden,
// so that a change to the CLI's help text is always deliberate (regenerate with go test -run TestHelpGolden -update-help).
func TestHelpGolden(t *testing.T) {
	var got bytes.Buffer
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.Fields(c.CommandPath())[1:]
		var out, errb bytes.Buffer
		code := run(context.Background(), append(path, "--help"), strings.NewReader(""), &out, &errb)
		got.WriteString("=== opack " + strings.Join(append(path, "--help"), " ") + "\n")
		got.WriteString(out.String())
		if errb.Len() > 0 || code != exitOK {
			t.Errorf("%s --help: exit %d, stderr %q", c.CommandPath(), code, errb.String())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	root.InitDefaultHelpCmd() // added by cobra at Execute: list them too
	root.InitDefaultCompletionCmd()
	walk(root)
	if *updateHelp {
		if err := os.WriteFile(helpGolden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(helpGolden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("help output differs from %s (-want +got):\n%s", helpGolden, diff)
	}
}
