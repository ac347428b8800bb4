mod executor;
