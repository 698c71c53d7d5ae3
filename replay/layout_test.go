package replay

import (
	"testing"
	"unsafe"
)

// TestCPUTaskSize keeps a node's CPU list entry at two to a cache line:
// every task end scans its node's list.
func TestCPUTaskSize(t *testing.T) {
	if s := unsafe.Sizeof(cpuTask{}); s != 32 {
		t.Errorf("a CPU list entry takes %d bytes, want 32", s)
	}
}

// TestTaskRecordSize keeps a task record to a cache line: launches and
// ends touch one record each, in no order.
func TestTaskRecordSize(t *testing.T) {
	if s := unsafe.Sizeof(task{}); s != 64 {
		t.Errorf("a task record takes %d bytes, want 64", s)
	}
}
