/* Half of a circle on purpose: circle_a calls circle_b, which calls back (the file-circles
 * check must find it; tests/tui.cmake expects it to fail here). */
int circle_a(int n);
int circle_b(int n);

int circle_a(int n)
{
	return n > 0 ? circle_b(n - 1) : 0;
}
