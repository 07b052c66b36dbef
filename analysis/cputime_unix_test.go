//go:build unix

package analysis

import "syscall"

// cpuSeconds is the process's CPU time so far, user and system: the
// benchmarks timed against other programs report it, since wall time on a
// shared machine counts the other jobs too.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
