//go:build amd64

#include "textflag.h"

// func zeroUpper()
TEXT ·zeroUpper(SB), NOSPLIT, $0-0
	VZEROUPPER
	RET
