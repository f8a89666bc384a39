"""Many boards at once on numpy arrays, exactly as the scalar engine scores them, and the
lessons' sweeps."""
