// Compiled as a layer's code: includes VIRREY_PROBE_HEADER with only that
// layer's usage requirements (tests/layers/CMakeLists.txt).
#include VIRREY_PROBE_HEADER

int virrey_layer_probe() { return 0; }
