package vcluster

// Test helpers for the external tests, which compare the virtual cluster
// with the fluid reference schedulers (package fluid imports this one).
var (
	CheckOrder = checkOrder
	CmpFloat   = cmpFloat
	Near       = near
)
