//go:build !unix

package storetest

import "time"

// processCPU is 0 where getrusage is not: cpu-ns/op then reads 0.
func processCPU() time.Duration { return 0 }
