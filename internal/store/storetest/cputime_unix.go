//go:build unix

package storetest

import (
	"syscall"
	"time"
)

// processCPU is the processor time the process has used, user and system:
// the benchmarks report it per op (cpu-ns/op) beside the wall time, which
// on a shared machine also counts the waits for a core.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
