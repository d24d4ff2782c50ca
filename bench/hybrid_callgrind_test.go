package bench

import (
	"fmt"
	"os"
	"regexp"
	"testing"
)

// TestHybridCallgrind decodes one page of each hybrid row whose name
// matches $PQCODEC_HYBRID_CALLGRIND with every implementation, each once
// to warm up and once through callgrindOurs / callgrindPeer, for
// bench/hybrid_callgrind.sh, which runs valgrind --tool=callgrind
// collecting only inside one of them. With $PQCODEC_HYBRID_LIST set it
// only prints the names of the rows.
func TestHybridCallgrind(t *testing.T) {
	pat := os.Getenv("PQCODEC_HYBRID_CALLGRIND")
	if pat == "" {
		t.Skip("PQCODEC_HYBRID_CALLGRIND not set")
	}
	re := regexp.MustCompile(pat)
	// A stack grown beforehand: callgrind loses track of calls when the
	// runtime moves the stack during a measured call.
	growStack(16)
	for _, hr := range hybridRows() {
		if !re.MatchString(hr.name) {
			continue
		}
		if os.Getenv("PQCODEC_HYBRID_LIST") != "" {
			fmt.Println("callgrind row", hr.name)
			continue
		}
		row := hr.build()
		ours, peer := row.impls[0], row.impls[1]
		for _, im := range row.impls {
			if err := im.check(); err != nil {
				t.Fatal(row.name, err)
			}
		}
		if err := callgrindOurs(ours.run); err != nil {
			t.Fatal(err)
		}
		if err := callgrindPeer(peer.run); err != nil {
			t.Fatal(err)
		}
	}
}

//go:noinline
func callgrindOurs(run func() error) error { return run() }

//go:noinline
func callgrindPeer(run func() error) error { return run() }

// growStack uses n times 16 KiB of stack.
//
//go:noinline
func growStack(n int) byte {
	var b [16384]byte
	b[n] = byte(n)
	if n > 0 {
		return growStack(n-1) + b[n/2]
	}
	return b[0]
}
