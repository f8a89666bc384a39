"""The exact solver: the best board a coalition of cards could agree on, over every board at
once."""
