// INVERT_EXPORT marks the library's public API: the classes and functions
// declared in include/invert/. The library is compiled with hidden symbol
// visibility (-fvisibility=hidden), so a shared libinvert exports exactly
// these and nothing of its implementation; in a static build the attribute
// changes nothing.
#ifndef INVERT_EXPORT_H_
#define INVERT_EXPORT_H_

#if defined(__GNUC__) || defined(__clang__)
#define INVERT_EXPORT __attribute__((visibility("default")))
#else
#define INVERT_EXPORT
#endif

#endif  // INVERT_EXPORT_H_
