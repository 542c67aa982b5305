// Command proctime runs a command and prints its wall time, CPU time and peak RSS on one
// line of stderr-free stdout, for `make bench`'s whole-process table:
//
//	go run ./hack/proctime -label NAME -- opack validate bundle DIR...
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	label := flag.String("label", "", "row label")
	runs := flag.Int("runs", 3, "runs; the fastest is reported")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: proctime -label NAME -- command args...")
		os.Exit(2)
	}
	best := time.Duration(1<<63 - 1)
	var cpu time.Duration
	var rss int64
	code := 0
	for range *runs {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Stdout, cmd.Stderr = nil, nil
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start)
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if wall < best {
			best = wall
			cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			rss = ru.Maxrss // KiB on Linux
		}
	}
	fmt.Printf("| %s | %.3f s | %.3f s | %.1f MB | %d |\n", *label, best.Seconds(), cpu.Seconds(), float64(rss)/1024, code)
}
