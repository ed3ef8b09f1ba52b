// Placeholder translation unit; the implementation lands with the hostfile
// model work (issue: foundation).
#include "distkit/hostfile/hostfile.hpp"
