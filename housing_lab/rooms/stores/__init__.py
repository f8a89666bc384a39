"""The rooms' stores: rooms, their tokens and action logs, and the class polls' tables, kept in
SQLite or PostgreSQL.

A layer: these modules stand on the rooms' vocabulary (`rooms.errors`, `games`, `tokens`,
`urls`) and import nothing above it; which games exist is handed to a store when it is opened
(`rooms.open_store` passes `registry.room_game`).
"""
