package crdserver

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the process when the test binary dies (a test timeout panics
// past Close).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
