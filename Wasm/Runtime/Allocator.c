// posix_memalign and free for Embedded Swift on wasm32: Swift reserves these names for its own
// runtime, so they are defined here and forward to the allocator in Runtime.swift.
#include <stddef.h>

void *receipt_heap_allocate(size_t alignment, size_t size);
void receipt_heap_free(void *pointer);

int posix_memalign(void **result, size_t alignment, size_t size) {
    void *pointer = receipt_heap_allocate(alignment, size);
    if (pointer == NULL) return 12; // ENOMEM
    *result = pointer;
    return 0;
}

void free(void *pointer) { receipt_heap_free(pointer); }
