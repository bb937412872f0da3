### Tests (filled in below)
