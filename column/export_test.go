package column

// GuardCPU is guardCPU for the fuzz targets of package column_test, which
// read through package rows (which imports column).
var GuardCPU = guardCPU
