package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/spf13/cobra"
)

// profileFlags are the hidden global --cpuprofile, --memprofile and --trace flags: pprof profiles
// of one run, for `go tool pprof`, and its execution trace, for `go tool trace` (where wall time
// goes: goroutines, GC, system calls; see docs/performance.md).
type profileFlags struct {
	cpu, mem, trace    string
	cpuFile, traceFile *os.File
}

func (p *profileFlags) addFlags(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the run to this file")
	f.StringVar(&p.mem, "memprofile", "", "write a heap profile (allocations and what is live at the end) to this file")
	f.StringVar(&p.trace, "trace", "", "write an execution trace of the run to this file")
	_ = f.MarkHidden("cpuprofile")
	_ = f.MarkHidden("memprofile")
	_ = f.MarkHidden("trace")
}

// start begins CPU profiling when asked.
func (p *profileFlags) start() error {
	if p.mem != "" {
		runtime.MemProfileRate = 64 * 1024
	}
	if p.trace != "" {
		f, err := os.Create(p.trace)
		if err != nil {
			return fmt.Errorf("creating the trace: %w", err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return fmt.Errorf("starting the trace: %w", err)
		}
		p.traceFile = f
	}
	if p.cpu == "" {
		return nil
	}
	f, err := os.Create(p.cpu)
	if err != nil {
		return fmt.Errorf("creating the CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("starting the CPU profile: %w", err)
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and writes the heap profile; it runs whether the command failed or not.
func (p *profileFlags) stop() error {
	if p.traceFile != nil {
		trace.Stop()
		if err := p.traceFile.Close(); err != nil {
			return fmt.Errorf("writing the trace: %w", err)
		}
		p.traceFile = nil
	}
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if err := p.cpuFile.Close(); err != nil {
			return fmt.Errorf("writing the CPU profile: %w", err)
		}
		p.cpuFile = nil
	}
	if p.mem == "" {
		return nil
	}
	f, err := os.Create(p.mem)
	if err != nil {
		return fmt.Errorf("creating the heap profile: %w", err)
	}
	defer f.Close()
	runtime.GC() // "in use" then means live at the end, not as of the last collection
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		return fmt.Errorf("writing the heap profile: %w", err)
	}
	return f.Close()
}
