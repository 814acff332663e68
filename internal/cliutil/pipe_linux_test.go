package cliutil

import (
	"os"
	"syscall"
	"testing"
)

// A stage's stdin and stdout pipes get the largest buffer an unprivileged
// process may ask for (issue 17); a file is left alone.
func TestGrowPipes(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	growPipes(r, nil, f)
	const fGetPipeSz = 1032 // F_GETPIPE_SZ
	n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fGetPipeSz, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if n != pipeSize {
		b, _ := os.ReadFile("/proc/sys/fs/pipe-max-size")
		t.Errorf("pipe buffer %d bytes, want %d (pipe-max-size %s)", n, pipeSize, b)
	}
}
