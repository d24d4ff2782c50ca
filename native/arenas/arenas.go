//go:build cgo && linux

package arenas

/*
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

__attribute__((constructor)) static void pqcodec_cap_arenas(void) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		mallopt(M_ARENA_MAX, 1);
	}
#endif
}
*/
import "C"
