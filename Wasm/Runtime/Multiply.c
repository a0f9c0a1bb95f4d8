// __multi3, the 128-bit multiplication LLVM calls for Swift's 64-bit multipliedFullWidth on
// wasm32 (compiler-rt's builtins are not shipped for wasm32-unknown-none-wasm). A C file
// because a function of __int128 arguments has no Swift @_cdecl spelling. Written in 64-bit
// halves so that it does not call itself.
typedef unsigned long long u64;
typedef unsigned __int128 u128;

// The full 128-bit product of two 64-bit values, from four 32-bit products.
static u128 multiply64(u64 a, u64 b) {
    u64 aLow = a & 0xFFFFFFFFu, aHigh = a >> 32, bLow = b & 0xFFFFFFFFu, bHigh = b >> 32;
    u64 lowLow = aLow * bLow, lowHigh = aLow * bHigh, highLow = aHigh * bLow, highHigh = aHigh * bHigh;
    u64 middle = (lowLow >> 32) + (lowHigh & 0xFFFFFFFFu) + (highLow & 0xFFFFFFFFu);
    u64 low = (middle << 32) | (lowLow & 0xFFFFFFFFu);
    u64 high = highHigh + (lowHigh >> 32) + (highLow >> 32) + (middle >> 32);
    return ((u128)high << 64) | low;
}

u128 __multi3(u128 a, u128 b) {
    u64 aLow = (u64)a, aHigh = (u64)(a >> 64), bLow = (u64)b, bHigh = (u64)(b >> 64);
    u128 product = multiply64(aLow, bLow);
    u64 cross = aLow * bHigh + aHigh * bLow;   // only its low 64 bits reach the result
    return product + ((u128)cross << 64);
}
