#include <cstdio>
int main() { std::puts("throng: the visualizer is coming"); return 0; }
