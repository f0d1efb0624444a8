#pragma once
// How parity's programs ask glibc's malloc to keep the memory they free.
//
// By default glibc unmaps a freed block above its mmap threshold (a dynamic one, 128 KB at first)
// and trims the heap's top past its trim threshold, so the next block of that size takes fresh
// pages, and the first touch of each 4 KB page is a page fault (one to two microseconds on a
// virtual machine). An op's reference at large sizes allocates and frees matrices of megabytes on
// every evaluation (a Filtered T x N matrix holds 32 bytes an element): at lora_forward's N2048
// K1024 T257 the filter spent about a quarter of its time in those faults.
//
// keep_freed_memory() sets the mmap threshold to 32 MB (the largest glibc takes: larger blocks are
// still mapped and unmapped) and the trim threshold to 1 GB, so freed blocks return to malloc's
// free lists and are reused without faults; the process's resident memory stays near its peak.
// Call it at the start of main, before any thread (parity's programs do, beside
// oracles::load_blas()). Does nothing where the C library is not glibc.
namespace parity {

void keep_freed_memory();

}  // namespace parity
