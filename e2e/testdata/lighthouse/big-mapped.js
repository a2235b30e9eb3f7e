window.bigMapped = true;
