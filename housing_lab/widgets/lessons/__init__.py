"""Small widgets the lessons share: predict-then-run, quizzes, progress bars, charts, coalitions."""
