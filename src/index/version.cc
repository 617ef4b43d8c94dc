// Version(): the library's version, from the generated invert/version.h.
#include "invert/version.h"

namespace invert {

const char* Version() { return INVERT_VERSION_STRING; }

}  // namespace invert
