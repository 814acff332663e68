package cliutil

import (
	"os"
	"syscall"
)

// pipeSize is the buffer asked for a standard stream that is a pipe: the
// largest an unprivileged process may set by default
// (/proc/sys/fs/pipe-max-size). With Linux's default of 64 KiB, a record
// of a few hundred kilobytes crosses a pipe in several rounds, each waking
// the reader and then the writer; a stage passing records on spent more
// time switching than copying (issue 17).
const pipeSize = 1 << 20

// growPipes enlarges the buffers of stdin and stdout where they are pipes.
// A failure (not a pipe, a lower limit) leaves the stream as it was.
func growPipes(files ...*os.File) {
	for _, f := range files {
		if f == nil {
			continue
		}
		fi, err := f.Stat()
		if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			continue
		}
		const fSetPipeSz = 1031 // F_SETPIPE_SZ
		syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fSetPipeSz, pipeSize)
	}
}
