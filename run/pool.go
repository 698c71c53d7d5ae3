package run

import (
	"context"
	"fmt"
	"sync"
)

// Reporter hears how a pool's run goes; *Progress fits.
type Reporter interface {
	Start(name string, total int)
	Step()
	Finish()
}

// Pool runs calls on a fixed number of workers. Determinism is the
// callers' part: each call writes only what belongs to its index (its
// cell's directory, its slot of a slice), so the outputs are the same
// whatever the number of workers and the order calls finish in.
type Pool struct {
	Workers  int // calls at once; less than 1 means 1
	Name     string
	Progress Reporter // if set, hears of every call that succeeds
}

// Run calls do(i) for every i in [0, n), Workers at a time, and returns
// how many calls succeeded. A failed call stops the run: no other call
// starts, the running ones finish, and Run returns a *CellError for the
// failed call of lowest index. When ctx is cancelled no call starts
// either, and Run returns without error: the caller compares the count
// with n.
func (p Pool) Run(ctx context.Context, n int, do func(i int) error) (int, error) {
	errs := make([]error, n)
	var ok int
	var mu sync.Mutex
	next := make(chan int)
	stop := make(chan struct{})
	var stopOnce sync.Once
	var wg sync.WaitGroup
	if p.Progress != nil {
		p.Progress.Start(p.Name, n)
	}
	for w := 0; w < min(max(1, p.Workers), n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				select {
				case <-stop:
					continue // handed out as a call failed: not started
				default:
				}
				if ctx.Err() != nil {
					continue
				}
				if errs[i] = do(i); errs[i] != nil {
					stopOnce.Do(func() { close(stop) }) // fail fast: start no other call
					continue
				}
				mu.Lock()
				ok++
				mu.Unlock()
				if p.Progress != nil {
					p.Progress.Step()
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		case <-stop:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if p.Progress != nil {
		p.Progress.Finish()
	}
	for i, err := range errs {
		if err != nil {
			return ok, &CellError{Index: i, Err: err}
		}
	}
	return ok, nil
}

// CellError is the failure of one cell of a Pool's run.
type CellError struct {
	Index int // the cell's position in the run
	Err   error
}

func (e *CellError) Error() string { return fmt.Sprintf("cell %d: %v", e.Index, e.Err) }

// Unwrap returns the cell's error.
func (e *CellError) Unwrap() error { return e.Err }
