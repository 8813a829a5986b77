# tgneo server image (used by docker-compose.yml; Neo4j runs in its own container there).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY tgneo ./tgneo
# the exact set CI tests (constraints.txt; pyproject.toml states only ranges), with the Rust packstream built for
# that driver (the rust extra)
RUN pip install --no-cache-dir -c constraints.txt ".[rust]"
ENV NEO4J_URI=bolt://neo4j:7687 NEO4J_USERNAME=neo4j
EXPOSE 8888
HEALTHCHECK --interval=10s --timeout=3s --retries=10 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8888/readyz').status != 200)"
# Binding beyond loopback requires TGNEO_TOKENS (see README, "Configuration").
CMD ["sh", "-c", "tgneo init-schema && exec tgneo serve --host 0.0.0.0 --port 8888"]
