# The Saboteur bot: python-telegram-bot, its own webhook server or long polling, games in Redis.
FROM python:3.11-slim-bookworm

RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-nanum \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY ai ./ai
COPY render ./render
COPY tgbot ./tgbot
COPY emulator ./emulator
COPY sandbox ./sandbox
RUN pip install --no-cache-dir .

RUN useradd --create-home --uid 10001 bot
USER bot
ENV PYTHONUNBUFFERED=1
EXPOSE 8443
CMD ["saboteur-bot"]
