# Cross-builds dmbench for 64-bit Arm on an amd64 Debian machine, with
# Debian's cross compiler and the arm64 builds of the libraries (ae/setup.sh
# aarch64 installs both), so that ae/check-aarch64.sh can rerun the
# reference results on another instruction set and another libm.
# Tests and dmbench run under qemu-user's emulation: CTest and
# gtest_discover_tests prefix them with the emulator.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
