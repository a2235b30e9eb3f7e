window.bigLoaded = true;
