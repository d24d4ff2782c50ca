// Package flow holds the flow control shared by the commands that write
// whole files from pages read on several goroutines (recompress, merge,
// reencode): a byte budget for what is in flight, the pipeline of
// recompress and merge, and a writer that counts what it wrote.
package flow

import (
	"io"
	"sync"
)

// Budget bounds the bytes in flight between goroutines. Acquire blocks
// while others hold bytes and taking n more would pass the limit, so one
// unit larger than the limit still goes through, alone. The zero value is
// not usable: call Init first. Its methods are safe for concurrent use.
type Budget struct {
	mu      sync.Mutex
	cond    sync.Cond
	limit   int64
	used    int64
	aborted bool
}

// Init sets the limit; it must be called before any other method.
func (b *Budget) Init(limit int64) {
	b.limit = limit
	b.cond.L = &b.mu
}

// Acquire takes n bytes, waiting while they do not fit beside what others
// hold. It returns false, without taking anything, once Abort was called.
func (b *Budget) Acquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && b.used+n > b.limit && !b.aborted {
		b.cond.Wait()
	}
	if b.aborted {
		return false
	}
	b.used += n
	return true
}

// Release gives back n bytes taken by Acquire.
func (b *Budget) Release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// Abort wakes every waiting Acquire and makes it, and every later one,
// return false.
func (b *Budget) Abort() {
	b.mu.Lock()
	b.aborted = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// Run runs the pipeline of recompress and merge. produce, on a goroutine of
// its own, queues each unit on order, for write, and on work, for one of
// workers goroutines; write runs on the calling goroutine and takes the
// units in order. Each worker goroutine calls newWorker once (its state is
// its own) and the function it returns for every unit of work, with
// stopped set once quit is closed. When write fails, Run closes quit and
// aborts budget, so that the goroutines stop, and drains order, so that
// produce ends. It returns write's results once every goroutine has ended.
func Run[U, R any](workers int, quit chan struct{}, budget *Budget, newWorker func() func(u U, stopped bool),
	produce func(order, work chan<- U), write func(order <-chan U) (R, error)) (R, error) {
	work := make(chan U, workers)
	order := make(chan U, 1024)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			process := newWorker()
			for u := range work {
				select {
				case <-quit:
					process(u, true)
				default:
					process(u, false)
				}
			}
		}()
	}
	prodDone := make(chan struct{})
	go func() {
		defer close(prodDone)
		defer close(work)
		defer close(order)
		produce(order, work)
	}()
	res, err := write(order)
	if err != nil {
		close(quit)
		budget.Abort()
		for range order { // let the producer finish
		}
	}
	<-prodDone
	wg.Wait()
	return res, err
}

// CountWriter writes to W and counts the bytes written in N. A short write
// without an error from W returns io.ErrShortWrite.
type CountWriter struct {
	W io.Writer
	N int64
}

func (c *CountWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	return n, err
}
