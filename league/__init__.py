"""The league runner: referee, players, command line (and later schedules, Ray, ratings, reports)."""
