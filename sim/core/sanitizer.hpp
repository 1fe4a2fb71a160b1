#pragma once
/// COINFER_ASAN is defined when this translation unit is built with AddressSanitizer (gcc or clang).
///
///     #ifdef COINFER_ASAN
///     ... a path that ASan cannot follow ...
///     #endif
#if defined(__SANITIZE_ADDRESS__)  // gcc
#define COINFER_ASAN 1
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
#define COINFER_ASAN 1
#endif
#endif
