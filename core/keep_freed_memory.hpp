#pragma once
// How parity's programs ask glibc's malloc to keep the memory they free.
//
// By default glibc maps a block above its mmap threshold on its own and unmaps it when freed, and
// trims the heap's top past its trim threshold; both thresholds are dynamic (a freed mapped block
// raises the mmap threshold to its size, up to 32 MB, and the trim threshold to twice that). A
// block taken on fresh pages faults on the first touch of each 4 KB page (one to two microseconds
// on a virtual machine). An op's reference at large sizes allocates and frees several matrices of
// megabytes on every evaluation (a Filtered T x N matrix holds 32 bytes an element): together
// they pass the trim threshold, so every evaluation faulted again (about 3,100 faults an
// evaluation of lora_forward's filter at N5120 K5120 T33).
//
// keep_freed_memory() sets the mmap threshold to 32 MB (the largest glibc takes: larger blocks are
// still mapped and unmapped) and the trim threshold to 1 GB, so freed blocks return to malloc's
// free lists and are reused without faults; the process's resident memory stays near its peak.
// Returns whether the C library took both settings: false where it is not glibc, or where a
// sanitizer's allocator stands in for it. Call it at the start of main, before any thread
// (parity's programs do, beside oracles::load_blas()).
namespace parity {

bool keep_freed_memory();

}  // namespace parity
