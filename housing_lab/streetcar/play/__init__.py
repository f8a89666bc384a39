"""Streetcar's players and experiments beside its rules: bots (random, greedy, mcts), series of
bot games (match), the line experiment; they use the rules, the rules never use them."""
