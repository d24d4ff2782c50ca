package rewriteopt

import (
	"errors"
	"testing"

	"github.com/pqcodec/pqcodec/format"
)

var errOption = errors.New("test: invalid option")

func TestChecks(t *testing.T) {
	workers := 3
	if err := SetWorkers(&workers, 0, errOption); !errors.Is(err, errOption) || workers != 3 {
		t.Errorf("SetWorkers(0) = %v, workers %d", err, workers)
	}
	if err := SetWorkers(&workers, 2, errOption); err != nil || workers != 2 {
		t.Errorf("SetWorkers(2) = %v, workers %d", err, workers)
	}
	budget := int64(5)
	if err := SetMaxMemory(&budget, -1, errOption); !errors.Is(err, errOption) || budget != 5 {
		t.Errorf("SetMaxMemory(-1) = %v, budget %d", err, budget)
	}
	if err := SetMaxMemory(&budget, 1, errOption); err != nil || budget != 1 {
		t.Errorf("SetMaxMemory(1) = %v, budget %d", err, budget)
	}
	var kvs []format.KeyValue
	if err := AddKeyValue(&kvs, "", "v", errOption); !errors.Is(err, errOption) || len(kvs) != 0 {
		t.Errorf("AddKeyValue of an empty key = %v, %d entries", err, len(kvs))
	}
	if err := AddKeyValue(&kvs, "k", "v", errOption); err != nil || len(kvs) != 1 || kvs[0].Key != "k" || *kvs[0].Value != "v" {
		t.Errorf("AddKeyValue = %v, %+v", err, kvs)
	}
}
