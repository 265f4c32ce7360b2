// Linked with one layer's whole archive and only the layers below it (tests/CMakeLists.txt):
// that the link succeeds is the check, so there is nothing to run.
int main() { return 0; }
