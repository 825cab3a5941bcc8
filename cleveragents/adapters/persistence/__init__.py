"""SQLAlchemy persistence: typed rows, repositories, a unit of work, Alembic migrations."""
