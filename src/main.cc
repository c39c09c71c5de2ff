#include "app/main.h"

int main(int argc, char** argv) { return foreshock::app::Main(argc, argv); }
