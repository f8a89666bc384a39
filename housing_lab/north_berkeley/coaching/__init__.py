"""The exact coach: the fewest changes to a board that win a constituent card over."""
