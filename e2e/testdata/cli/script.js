document.title = "from a script file";
