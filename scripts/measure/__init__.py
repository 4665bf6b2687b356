"""gpufleet's measuring script: runs PyTorch + transformers + peft on a GPU and writes measurement
cases (tests/data/cases/CASES.md). `plan` and `cases` import without torch; `runner` needs it."""
