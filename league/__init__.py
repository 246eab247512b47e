"""The league runner: referee, players, config, schedules, the Ray runner, store, ratings, reports, CLI."""
