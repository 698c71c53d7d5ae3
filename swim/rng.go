package swim

import "math/rand/v2"

// Random streams. Generate derives an independent PCG stream per purpose
// (and per job for task durations) from Config.Seed, so that changing one
// part of a configuration, say the arrival process, does not change the
// draws of the others.
const (
	streamClasses uint64 = iota + 1
	streamSizes
	streamArrivals
	streamTasks
)

// mix is the SplitMix64 finalizer: it spreads nearby inputs over all bits.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns the random stream for a purpose and index.
func newStream(seed, purpose, index uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(seed^mix(purpose)), mix(index)))
}

// stratified returns n uniforms in [0, 1), one in each of the n strata
// [i/n, (i+1)/n), in random order. Drawing gaps through them keeps the
// distribution of each gap while making the sample's distribution, and its
// mean, match the target far more closely than independent draws.
func stratified(n int, rng *rand.Rand) []float64 {
	u := make([]float64, n)
	for i := range u {
		u[i] = (float64(i) + rng.Float64()) / float64(n)
	}
	rng.Shuffle(n, func(i, j int) { u[i], u[j] = u[j], u[i] })
	return u
}
